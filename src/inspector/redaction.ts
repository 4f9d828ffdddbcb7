/**
 * What of a secret may be shown on a screen: the names of the fields that hold one, and the preview
 * of a value the Machines view shows. Apart from the Stately inspector's client (src/inspector.ts),
 * so that the view, which runs in every start, loads nothing of @statelyai/inspect.
 */
// Matches keys such as `password`, `obsPassword`, `apiKey`, `token`, `secret`, `authorization`.
export const secretKey = /passw(or)?d|secret|token|api_?key|authori[sz]ation/i;
// And the sign-in and view keys (`key`, `signInKey`, `viewKey`): camelCase only, so `hotkey` stays.
// Not in `toSafeJson`: a machine definition's states carry a `key`, which the Stately inspector reads.
const keyKey = /^key$|[a-z0-9]Key$|_key$/;

/** Whether a field of that name holds a secret (a password, a token, a key), shown as `[redacted]`. */
const isSecretKey = (key: string): boolean => secretKey.test(key) || keyKey.test(key);

/**
 * How much of a value the Machines view shows: enough to read, never a whole game frame. `values` is
 * the budget of one preview (every value shown counts one), which also bounds its cost: a game frame
 * twenty times a second must not cost more to preview than to handle.
 */
const previewLimits = { depth: 5, items: 12, string: 160, values: 48 };

/**
 * A copy of `value` that is safe to show on a screen OBS may capture and cheap to send: secrets
 * redacted (as `toSafeJson` does, plus sign-in and view keys), cycles and actors named, long strings
 * cut, and the whole cut with a marker once its budget of values is spent (more for a context asked
 * for than for each event's payload).
 */
export function safePreview(value: unknown, values = previewLimits.values): unknown {
  return previewOf(value, 0, new Set(), { left: values });
}

function previewOf(value: unknown, depth: number, seen: Set<object>, budget: { left: number }): unknown {
  budget.left--;
  if (typeof value === 'string') {
    return value.length > previewLimits.string
      ? `${value.slice(0, previewLimits.string)}… (${value.length} characters)`
      : value;
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function') return '[function]';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[circular]';
  // An actor reference in a context or an event: its id says which, its insides are the system.
  if ('sessionId' in value && 'send' in value) return `[actor ${String((value as { id?: unknown }).id)}]`;
  if (depth >= previewLimits.depth || budget.left <= 0) {
    return Array.isArray(value) ? `[${value.length} items]` : '[object]';
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (const item of value) {
        if (items.length >= previewLimits.items || budget.left <= 0) {
          items.push(`… ${value.length - items.length} more`);
          break;
        }
        items.push(previewOf(item, depth + 1, seen, budget));
      }
      return items;
    }
    const out: Record<string, unknown> = {};
    const keys = Object.keys(value);
    for (const [index, key] of keys.entries()) {
      if (budget.left <= 0) {
        out['…'] = `${keys.length - index} more fields`;
        break;
      }
      const inner = (value as Record<string, unknown>)[key];
      if (isSecretKey(key) && inner !== undefined && inner !== null && inner !== '') {
        budget.left--;
        out[key] = '[redacted]';
      } else {
        out[key] = previewOf(inner, depth + 1, seen, budget);
      }
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
