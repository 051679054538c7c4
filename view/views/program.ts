// (to be built)
export async function showProgram(main: HTMLElement, _parts: string[], _query: URLSearchParams): Promise<void> {
  main.textContent = "program";
}
