/**
 * The transport for DataForSEO's v3 API (docs.dataforseo.com/v3): POST a JSON array of tasks with
 * HTTP Basic auth, get back an envelope {status_code, status_message, tasks: [{status_code,
 * status_message, result}]}. The API answers HTTP 200 except for 401 (credentials), 402 (billing),
 * 404 (endpoint) and 500; everything else is told by its internal status codes (20000 = Ok.).
 * Failures become AppError: `config_error` for what an operator must fix (credentials, balance,
 * base URL), `audit_failed` for the rest, with `extra.provider` and `extra.reason`.
 */
import { AppError } from '../../../core/errors.ts';

export interface DataForSeoSettings {
  baseUrl: string;
  login: string;
  password: string;
  timeoutMs: number;
}

export interface DfsTask<R> {
  id?: string;
  status_code: number;
  status_message: string;
  result?: R[] | null;
}

interface DfsEnvelope<R> {
  status_code: number;
  status_message: string;
  tasks?: DfsTask<R>[] | null;
}

export const DFS_OK = 20000;
/** Task status: the search engine found nothing for the keyword. */
export const DFS_NO_RESULTS = 40102;

const failure = (code: 'config_error' | 'audit_failed', reason: string, message: string) =>
  new AppError(code, `SERP provider (DataForSEO): ${message}`, { provider: 'dataforseo', reason });

/** Posts one task and returns it (its status checked by the caller: "no results" is not an error everywhere). */
export async function postTask<R>(
  settings: DataForSeoSettings,
  path: string,
  task: Record<string, unknown>,
): Promise<DfsTask<R>> {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${settings.login}:${settings.password}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify([task]),
      signal: AbortSignal.timeout(settings.timeoutMs),
      redirect: 'error',
    });
  } catch (e) {
    const err = e as Error;
    if (err.name === 'TimeoutError')
      throw failure('audit_failed', 'timeout', `no answer within ${settings.timeoutMs / 1000} s`);
    throw failure(
      'audit_failed',
      'network',
      `cannot reach ${url}: ${(err.cause as Error | undefined)?.message ?? err.message}`,
    );
  }
  if (res.status === 401)
    throw failure(
      'config_error',
      'unauthorized',
      'the credentials were refused (check SERP_HTTP_LOGIN and SERP_HTTP_PASSWORD)',
    );
  if (res.status === 402)
    throw failure('config_error', 'payment_required', 'payment required (check the account balance)');
  if (res.status === 404)
    throw failure('config_error', 'not_found', `no such endpoint ${url} (check SERP_HTTP_BASE_URL)`);
  if (res.status !== 200) throw failure('audit_failed', 'http_status', `HTTP ${res.status}`);

  let body: DfsEnvelope<R>;
  try {
    body = (await res.json()) as DfsEnvelope<R>;
  } catch {
    throw failure('audit_failed', 'malformed', 'the answer is not JSON');
  }
  if (typeof body?.status_code !== 'number')
    throw failure('audit_failed', 'malformed', 'the answer has no status_code');
  if (body.status_code !== DFS_OK)
    throw failure('audit_failed', 'api_error', `${body.status_code} ${body.status_message}`);
  const first = body.tasks?.[0];
  if (!first || typeof first.status_code !== 'number')
    throw failure('audit_failed', 'malformed', 'the answer has no task');
  return first;
}

/** A task that must have succeeded. */
export function okResult<R>(task: DfsTask<R>): R[] {
  if (task.status_code !== DFS_OK)
    throw failure('audit_failed', 'task_error', `${task.status_code} ${task.status_message}`);
  return task.result ?? [];
}
