/** When to send a request again, and after how long: the spec's 429 and its retryable 503s only. */

/** The 503 codes the spec marks "retry with backoff"; any other error is the caller's to handle. */
export const RETRYABLE_503_CODES: readonly string[] = ['vendor_unavailable', 'queue_unavailable'];

export interface RetryOptions {
  /** Attempts after the first (default 3); 0 turns retrying off. */
  retries?: number;
  /** The first backoff when the answer names no Retry-After (default 500 ms), doubled per attempt. */
  baseDelayMs?: number;
  /** No wait is longer than this, Retry-After included (default 60 s). */
  maxDelayMs?: number;
  /** How to wait (default a timer); a test or a scheduler of your own may stand in. */
  sleep?: (ms: number) => Promise<void>;
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function isRetryable(response: Response): Promise<boolean> {
  if (response.status === 429) return true;
  if (response.status !== 503) return false;
  try {
    const body = (await response.clone().json()) as { error?: unknown };
    return typeof body.error === 'string' && RETRYABLE_503_CODES.includes(body.error);
  } catch {
    return false;
  }
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** A fetch that sends a request again on 429 (after its Retry-After) and on retryable 503s (exponential backoff). */
export function retryingFetch(
  fetchOnce: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const { retries = 3, baseDelayMs = 500, maxDelayMs = 60_000, sleep = timer } = options;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      // A clone per attempt: a request's body can be read once.
      const response = await fetchOnce(attempt < retries ? request.clone() : request);
      if (attempt >= retries || !(await isRetryable(response))) return response;
      // Full jitter on the exponential step, so clients refused together do not return together.
      const backoff = Math.random() * baseDelayMs * 2 ** attempt;
      await response.body?.cancel();
      await sleep(Math.min(maxDelayMs, retryAfterMs(response) ?? backoff));
    }
  };
}
