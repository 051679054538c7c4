// (to be built)
export async function showRecording(main: HTMLElement, _parts: string[], _query: URLSearchParams): Promise<void> {
  main.textContent = "recording";
}
