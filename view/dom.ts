// Building the page's elements. Text goes in as text (textContent), never as markup: whatever
// a program or a recording holds is shown, not run. No view sets innerHTML.

type Child = Node | string | null | undefined | false;

/** An element with attributes (a string each; `on*` and `style` are refused: handlers are added in code) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (/^on/i.test(name) || name === "style") throw new Error(`el: attribute ${name} is not set this way`);
    element.setAttribute(name, value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** The element with id `id`, emptied. */
export function emptied(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`no element #${id}`);
  element.replaceChildren();
  return element;
}
