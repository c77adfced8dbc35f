// What a request and its answer are on either wire (plain-http.ts, or undici through exchange.ts): the
// shapes the transport sends and reads, apart from the code that chooses and loads a wire.

/** One request. */
export interface ExchangeOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** The answer's head, and its body as it arrives (read it to the end, or destroy it). */
export interface Answer {
  statusCode: number;
  /** Names in lower case; a repeated header is an array (or joined with commas, as Node's client does). */
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Buffer> & { destroy(): void };
}

/** Sends one request. */
export type Exchange = (url: URL, options: ExchangeOptions) => Promise<Answer>;
