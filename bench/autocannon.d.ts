// The parts of autocannon's API the load bench uses (the package ships no types).
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- per-connection context of the caller's choosing
    setupRequest?: (req: Request, context: any) => Request;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Seconds to wait for a response before counting a timeout (default 10). */
    timeout?: number;
    requests?: Request[];
  }
  export interface Result {
    requests: { total: number; average: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  /** With a callback: the running instance, which `stop()` ends early (the callback then gets the result). */
  interface Instance {
    stop(): void;
  }
  function autocannon(opts: Options): Promise<Result>;
  function autocannon(opts: Options, done: (err: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
