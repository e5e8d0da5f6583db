/** Short random ids for tabs and history entries (unique enough for one browser profile). */
export function newId(): string {
  return Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
}
