/** The service's error body (the spec's Error body): `error` is the stable code clients branch on. */
export interface ErrorBody {
  error: string;
  message: string;
  request_id: string;
}

/** Any non-2xx answer of the service, after the retries it allows: its status and its error body. */
export class ComplianceServiceError extends Error implements ErrorBody {
  override readonly name = 'ComplianceServiceError';
  readonly status: number;
  readonly error: string;
  readonly request_id: string;

  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.status = status;
    this.error = body.error;
    this.request_id = body.request_id;
  }

  /** From an answer whose body may not be the error body (a proxy's page): the status stands in for the code. */
  static from(response: Response, body: unknown): ComplianceServiceError {
    const parsed = typeof body === 'object' && body !== null ? (body as Partial<ErrorBody>) : {};
    return new ComplianceServiceError(response.status, {
      error: typeof parsed.error === 'string' ? parsed.error : `http_${response.status}`,
      message:
        typeof parsed.message === 'string'
          ? parsed.message
          : `HTTP ${response.status} ${response.statusText}`,
      request_id:
        typeof parsed.request_id === 'string'
          ? parsed.request_id
          : (response.headers.get('x-request-id') ?? ''),
    });
  }
}
