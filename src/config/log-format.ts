export type LogFormat = 'json' | 'pretty';

const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

/**
 * LOG_FORMAT when set; otherwise human-readable lines for a person at a terminal and JSON lines for everything
 * else (a file, a pipe, a container's log collector), which is what production reads.
 */
export function chooseLogFormat(raw: string | undefined, terminal: boolean, problems: string[]): LogFormat {
  if (raw === undefined || raw === '') return terminal ? 'pretty' : 'json';
  if (LOG_FORMATS.includes(raw as LogFormat)) return raw as LogFormat;
  problems.push(`LOG_FORMAT must be json or pretty (got "${raw}")`);
  return 'json';
}
