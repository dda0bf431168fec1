import { ApiError, apiErrorFromResponse } from './api-error';

export type QueryValue = string | number | boolean | null | undefined;

export interface RestRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

/** Called on every failed call before it is thrown (the session watches for 401s here). */
export type FailureListener = (error: ApiError) => void;

/** The query string of the values that are not null or undefined (console.md section 7). */
export function queryString(query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== null && value !== undefined) {
      params.append(name, String(value));
    }
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * The console's REST client: JSON with the session cookie, a count of calls in flight (the
 * loading bar shows while there are any), and every failure sorted into an ApiError.
 */
export class RestClient {
  private pending = 0;
  private readonly pendingListeners = new Set<(pending: number) => void>();
  private readonly failureListeners = new Set<FailureListener>();

  constructor(private readonly fetchFn: typeof fetch = (input, init) => fetch(input, init)) {}

  async request<T>(path: string, { method = 'GET', query, body, signal }: RestRequest = {}): Promise<T> {
    this.setPending(this.pending + 1);
    try {
      return (await this.send(path, method, query, body, signal)) as T;
    } catch (error) {
      if (error instanceof ApiError) {
        for (const listener of this.failureListeners) {
          listener(error);
        }
      }
      throw error;
    } finally {
      this.setPending(this.pending - 1);
    }
  }

  /** Listens to the number of calls in flight; answers how to stop listening. */
  onPending(listener: (pending: number) => void): () => void {
    this.pendingListeners.add(listener);
    return () => this.pendingListeners.delete(listener);
  }

  onFailure(listener: FailureListener): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  get inFlight(): number {
    return this.pending;
  }

  private setPending(pending: number): void {
    this.pending = pending;
    for (const listener of this.pendingListeners) {
      listener(pending);
    }
  }

  private async send(path: string, method: string, query: RestRequest['query'], body: unknown, signal: AbortSignal | undefined): Promise<unknown> {
    let response: Response;
    try {
      response = await this.fetchFn(`${path}${queryString(query)}`, {
        method,
        credentials: 'include',
        headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
        throw new ApiError('cancelled', 0, null);
      }
      throw new ApiError('request', 0, null, undefined, error instanceof Error ? error.message : 'The request failed.');
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        // A body that is not JSON (a proxy's error page) is judged by its status alone.
        parsed = undefined;
      }
    }
    if (!response.ok) {
      throw apiErrorFromResponse(response.status, parsed);
    }
    return parsed;
  }
}
