// A message for the next screen (after a delete, the list says what happened).
let pending = "";
export const setFlash = (message: string) => void (pending = message);
export function takeFlash(): string {
  const m = pending;
  pending = "";
  return m;
}
