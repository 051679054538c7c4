// (to be built)
export async function showPlayground(main: HTMLElement, _parts: string[], _query: URLSearchParams): Promise<void> {
  main.textContent = "playground";
}
