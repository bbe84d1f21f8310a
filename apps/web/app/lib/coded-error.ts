// The one shape of a failed call the pages explain: an HTTP status and the server's code and
// message (decision: errors carry a stable `code`).

/** A failed call: `status` is the HTTP status (0 when no answer), `code`/`message` the body's. */
export class CodedError extends Error {
  readonly status: number
  readonly code: string
  constructor(status: number, code: string, message: string) {
    super(message)
    this.status = status
    this.code = code
  }
}
