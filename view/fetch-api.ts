// The page's requests to its server: relative to the page's own address, which holds the
// token, so every request carries it; same origin only.

import type { Refusal } from "./api.js";

export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly refusal: Refusal,
  ) {
    super(`${refusal.code}: ${refusal.message}`);
  }
}

/** GET `api/<path>` as JSON; a refusal (4xx or 5xx) is thrown as ApiRefusal with the server's code and message. */
export async function api<T>(path: string): Promise<T> {
  const response = await fetch(`api/${path}`, { credentials: "omit", cache: "no-store" });
  if (!response.ok) {
    const body = await response.text();
    let refusal: Refusal = { code: `HTTP-${response.status}`, message: body.slice(0, 500) };
    try {
      const parsed = JSON.parse(body) as Partial<Refusal>;
      if (typeof parsed.code === "string" && typeof parsed.message === "string")
        refusal = { code: parsed.code, message: parsed.message };
    } catch {}
    throw new ApiRefusal(response.status, refusal);
  }
  return (await response.json()) as T;
}

/** GET `api/<path>` as text. */
export async function apiText(path: string): Promise<string> {
  const response = await fetch(`api/${path}`, { credentials: "omit", cache: "no-store" });
  if (!response.ok)
    throw new ApiRefusal(response.status, { code: `HTTP-${response.status}`, message: await response.text() });
  return await response.text();
}
