// (to be built)
export async function showCompare(main: HTMLElement, _parts: string[], _query: URLSearchParams): Promise<void> {
  main.textContent = "compare";
}
