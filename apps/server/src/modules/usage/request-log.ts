import { sql, type SQL } from 'drizzle-orm';
import {
  USAGE_LOG_DAYS,
  type TUsageLog,
  type TUsageLogEntry,
  type TUsageLogQuery,
} from '@air/shared/schemas/usage-insight';
import type { TDb } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { endpointRoutes } from '../aiendpoint/service';
import { keyNames } from '../keys/service';
import { rowsOf } from './insight';

interface TLogRow {
  id: string;
  created_at: string | Date;
  endpoint_id: string | null;
  route_name: string | null;
  tool: string | null;
  key_id: string | null;
  key_name: string | null;
  status: number;
  latency_ms: number;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  tokens_estimated: boolean;
  streamed: boolean;
  error_code: string | null;
  attempts: number;
  cache_hit: boolean;
  client_format: TUsageLogEntry['client_format'];
  upstream_format: TUsageLogEntry['upstream_format'];
  requested_route_name: string | null;
}

/** The cursor is the last row's exact time (to the µs, as text) and id: stable under new calls. */
function encodeCursor(row: TLogRow & { at_text: string }): string {
  return Buffer.from(`${row.at_text}|${row.id}`).toString('base64url');
}

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|(\d{1,19})$/;

function decodeCursor(cursor: string): { at: string; id: string } {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number.isNaN(Date.parse(match[1]!)))
    throw new AppError('validation', { inputError: 'cursor', messageKey: 'validation.usage_cursor' });
  return { at: match[1]!, id: match[2]! };
}

const STATUS_RANGES = { '2xx': [200, 300], '4xx': [400, 500], '5xx': [500, 600] } as const;

/**
 * The account's calls of the last 30 days, newest first, paged by (created_at, id) cursor so a
 * page never repeats or skips rows while new calls arrive. Only metadata is stored, never bodies.
 */
export async function requestLog(db: TDb, accountId: string, query: TUsageLogQuery): Promise<TUsageLog> {
  const conditions: SQL[] = [
    sql`e.caller_account_id = ${accountId}`,
    sql`e.created_at >= now() - make_interval(days => ${USAGE_LOG_DAYS})`,
  ];
  if (query.endpoint_id) conditions.push(sql`e.endpoint_id = ${query.endpoint_id}`);
  if (query.key_id) conditions.push(sql`e.key_id = ${query.key_id}`);
  if (query.status) {
    const [low, high] = STATUS_RANGES[query.status];
    conditions.push(sql`e.status >= ${low} and e.status < ${high}`);
  }
  if (query.cursor) {
    const { at, id } = decodeCursor(query.cursor);
    conditions.push(sql`(e.created_at, e.id) < (${at}::timestamptz, ${id}::bigint)`);
  }
  const rows = await rowsOf<TLogRow & { at_text: string }>(
    db,
    sql`select e.id::text as id, e.created_at, e.endpoint_id::text as endpoint_id, a.route_name, e.tool,
        e.key_id::text as key_id, k.name as key_name, e.status, e.latency_ms, e.prompt_tokens,
        e.completion_tokens, e.tokens_estimated, e.streamed, e.error_code, e.attempts, e.cache_hit,
        e.client_format, e.upstream_format, r.route_name as requested_route_name,
        to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at_text
      from usage_events e
      left join ${endpointRoutes(db, 'a')} on a.id = e.endpoint_id
      left join ${endpointRoutes(db, 'r')} on r.id = e.requested_endpoint_id
      left join ${keyNames(db, 'k')} on k.id = e.key_id and k.account_id = e.caller_account_id
      where ${sql.join(conditions, sql` and `)}
      order by e.created_at desc, e.id desc
      limit ${query.limit + 1}`,
  );
  const page = rows.slice(0, query.limit);
  return {
    items: page.map((row) => ({
      id: row.id,
      time: new Date(row.created_at).toISOString(),
      endpoint_id: row.endpoint_id,
      route_name: row.route_name,
      tool: row.tool,
      key_id: row.key_id,
      key_name: row.key_name,
      status: row.status,
      latency_ms: row.latency_ms,
      prompt_tokens: row.prompt_tokens,
      completion_tokens: row.completion_tokens,
      tokens_estimated: row.tokens_estimated,
      streamed: row.streamed,
      error_code: row.error_code ?? (row.status >= 400 ? `upstream_${row.status}` : null),
      attempts: row.attempts,
      cache_hit: row.cache_hit,
      client_format: row.client_format,
      upstream_format: row.upstream_format,
      requested_route_name: row.requested_route_name,
    })),
    next_cursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}
