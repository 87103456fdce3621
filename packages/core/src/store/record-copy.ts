/**
 * A deep copy of a JSON-like record with `undefined` properties removed, so a patch such as
 * `{ name: undefined }` clears the field the same way in every backend (JSON drops it too).
 */
export function copyRecord<T>(value: T): T {
  return stripUndefined(structuredClone(value));
}

/** Applies a patch to a copy of `record`: keys whose value is `undefined` remove the field. */
export function applyPatch<T extends object>(record: T, patch: Partial<T>): T {
  return copyRecord({ ...record, ...patch });
}

export function copyBytes(data: Uint8Array): Uint8Array {
  return new Uint8Array(data);
}

function stripUndefined<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const item of value) stripUndefined(item);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (record[key] === undefined) delete record[key];
      else stripUndefined(record[key]);
    }
  }
  return value;
}
