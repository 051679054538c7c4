// `renyi view`'s server: the token a page's address holds, without which nothing is served.

import { randomBytes, timingSafeEqual } from "node:crypto";

/** 32 random bytes as 43 characters of base64url: what the printed address holds after its host. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Whether `given` is the token, compared in a time that does not tell how much of it matched. */
export function isToken(token: string, given: string): boolean {
  const a = Buffer.from(token);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
