import { describe, expect, it } from 'vitest';
import { metrics, renderMetrics } from '../../src/server/metrics';

const linesOf = (prefix: string) =>
  renderMetrics({ databaseBytes: null })
    .split('\n')
    .filter((line) => line.startsWith(prefix));

describe('metrics: series found by their label values', () => {
  it('counts each combination of labels in its own series, whichever order they come in', () => {
    const route = `/api/test-${Math.random().toString(36).slice(2)}`;
    metrics.requests.observe({ route, method: 'GET', status: '2xx' }, 0.003);
    metrics.requests.observe({ route, method: 'POST', status: '2xx' }, 0.2);
    metrics.requests.observe({ route, method: 'GET', status: '4xx' }, 0.02);
    metrics.requests.observe({ route, method: 'GET', status: '2xx' }, 0.007);
    const counts = linesOf('facturier_http_request_duration_seconds_count').filter((line) => line.includes(route));
    expect(counts).toEqual([
      `facturier_http_request_duration_seconds_count{route="${route}",method="GET",status="2xx"} 2`,
      `facturier_http_request_duration_seconds_count{route="${route}",method="POST",status="2xx"} 1`,
      `facturier_http_request_duration_seconds_count{route="${route}",method="GET",status="4xx"} 1`,
    ]);
    const buckets = linesOf('facturier_http_request_duration_seconds_bucket').filter(
      (line) => line.includes(route) && line.includes('method="GET",status="2xx"'),
    );
    // 3 ms and 7 ms: one under 5 ms, both under 10 ms and every bucket after.
    expect(buckets[0]).toMatch(/le="0\.005"\} 1$/);
    expect(buckets[1]).toMatch(/le="0\.01"\} 2$/);
    expect(buckets.at(-1)).toMatch(/le="\+Inf"\} 2$/);
    expect(
      linesOf('facturier_http_request_duration_seconds_sum').find((line) => line.includes(`"${route}",method="GET",status="2xx"`)),
    ).toMatch(/ 0\.01$/);
  });

  it('keeps apart two combinations whose values, joined with a separator, would read the same', () => {
    const job = `job-${Math.random().toString(36).slice(2)}`;
    // Joined with \u0001 after each value, both would be `${job}\u0001\u0001ok\u0001`.
    metrics.jobRuns.observe({ job: `${job}\u0001`, status: 'ok' }, 0.1);
    metrics.jobRuns.observe({ job, status: '\u0001ok' }, 0.1);
    metrics.jobRuns.observe({ job, status: '\u0001ok' }, 0.1);
    const counts = linesOf('facturier_job_run_duration_seconds_count').filter((line) => line.includes(job));
    expect(counts).toEqual([
      `facturier_job_run_duration_seconds_count{job="${job}\u0001",status="ok"} 1`,
      `facturier_job_run_duration_seconds_count{job="${job}",status="\u0001ok"} 2`,
    ]);
  });
});
