// (to be built)
export async function showItems(main: HTMLElement, _parts: string[], _query: URLSearchParams): Promise<void> {
  main.textContent = "items";
}
