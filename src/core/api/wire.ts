// A request and its answer on either wire (plain-http.ts, or undici through exchange.ts), apart from the code
// that chooses and loads a wire.

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

export type Exchange = (url: URL, options: ExchangeOptions) => Promise<Answer>;
