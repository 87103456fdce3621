/** A deep copy through JSON: what is kept in memory is exactly what a reload would read back. */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
