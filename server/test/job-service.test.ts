import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../src/core/socket/socket-bus';
import { ManualClock } from '../src/lib/clock';
import { HttpError } from '../src/lib/http-error';
import { type BacktestRow, backtestRepository } from '../src/trading/backtest/backtest-repository';
import type { JobChange, JobKind } from '../src/trading/jobs/job-kind';
import { JobQuota } from '../src/trading/jobs/job-quota';
import { LEASE_MS } from '../src/trading/jobs/job-runner';
import { CANCELED_ERROR, JobService } from '../src/trading/jobs/job-service';
import { insertUser, queuedBacktestRow, useJobDatabase } from './backtest-helper';

const T0 = Date.UTC(2026, 0, 15, 12);

/**
 * The shared job lifecycle once, for every kind: a toy kind over the backtests table whose work runs until its
 * signal aborts (or the test lets it finish). Two services on one database stand for two instances; each has its
 * own ManualClock, so an instance that never advances its clock never renews its lease, as a killed one.
 */
describe('job service and runner (every kind)', () => {
  const tdb = useJobDatabase(new Date(T0));
  const log = Fastify({ logger: false }).log;

  function instance(options: { maxAttempts?: number; quota?: JobQuota; channel?: string } = {}) {
    const clock = new ManualClock(T0);
    const notices: JobChange[] = [];
    const takenBack: string[] = [];
    const finish = new Map<string, () => void>();
    const kind: JobKind<BacktestRow> = {
      label: 'toy job',
      code: 'TOY',
      queue: backtestRepository,
      find: backtestRepository.find,
      notFound: () => new HttpError(404, 'TOY_NOT_FOUND', 'No such toy job'),
      notice: (change) => {
        notices.push(change);
        return { kind: 'backtest', data: { backtestId: change.jobId, ...change } } as LiveEvent;
      },
      execute: (row, job) =>
        new Promise<void>((resolve) => {
          job.signal.addEventListener('abort', () => resolve());
          finish.set(row.id, () => {
            void backtestRepository
              .complete(tdb.db, row.id, job.owner, { metrics: {} } as never, 'default', clock.now())
              .then(() => job.completed())
              .then(resolve);
          });
        }),
      takenBack: async (row, status) => {
        takenBack.push(`${row.id}:${status}`);
      },
    };
    const service = new JobService<BacktestRow>({
      db: tdb.db,
      clock,
      log,
      kind,
      publish: async () => {},
      channel: options.channel ?? `kestrel_jobs_test_${randomUUID().slice(0, 8)}`,
      concurrency: 1,
      ...(options.quota ? { quota: options.quota } : {}),
      ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    });
    return { clock, service, notices, takenBack, finish };
  }

  const create = (service: JobService<BacktestRow>, now: Date) =>
    service.create(tdb.userId, (tx) =>
      backtestRepository.insert(tx, queuedBacktestRow(tdb.userId, 'toy', now)),
    );
  const stored = async (id: string) =>
    (
      await tdb.db.query<{
        status: string;
        lease_owner: string | null;
        attempts: number;
        error: string | null;
      }>('SELECT status, lease_owner, attempts, error FROM backtests WHERE id = $1', [id])
    )[0];

  it('runs a created job at once on the instance with room and tells the owner each step', async () => {
    const a = instance();
    await a.service.start();
    const row = await create(a.service, a.clock.now());
    expect(a.service.runner.runningIds).toEqual([row.id]);
    a.finish.get(row.id)?.();
    await a.service.idle();
    expect((await stored(row.id))?.status).toBe('completed');
    expect(a.notices.map((n) => n.status)).toEqual(['queued', 'running', 'completed']);
    await a.service.close();
  });

  it('takes back the job of an instance that stopped renewing once its lease ran out, and runs it again', async () => {
    const channel = `kestrel_jobs_test_${randomUUID().slice(0, 8)}`;
    const dead = instance({ channel });
    await dead.service.start();
    const row = await create(dead.service, dead.clock.now());
    expect(dead.service.runner.runningIds).toEqual([row.id]);
    // `dead` never advances its clock again: no renewal, as a process killed with SIGKILL
    const alive = instance({ channel });
    await alive.service.start();
    await alive.clock.advance(LEASE_MS - 1);
    await alive.service.runner.tick();
    expect((await stored(row.id))?.lease_owner).toBe(dead.service.runner.owner);
    await alive.clock.advance(2);
    await alive.service.runner.tick();
    await expect.poll(async () => (await stored(row.id))?.lease_owner).toBe(alive.service.runner.owner);
    expect(await stored(row.id)).toMatchObject({ status: 'running', attempts: 2 });
    expect(alive.takenBack).toEqual([`${row.id}:queued`]);
    // The dead instance's next renewal finds the job gone and stops its work
    await dead.service.runner.heartbeat();
    await expect.poll(() => dead.service.runner.runningIds).toEqual([]);
    alive.finish.get(row.id)?.();
    await alive.service.idle();
    expect((await stored(row.id))?.status).toBe('completed');
    await alive.service.close();
    await dead.service.close();
  });

  it('fails a taken-back job once it has had its claims, with the interrupted message', async () => {
    const channel = `kestrel_jobs_test_${randomUUID().slice(0, 8)}`;
    const dead = instance({ channel, maxAttempts: 1 });
    await dead.service.start();
    const row = await create(dead.service, dead.clock.now());
    const alive = instance({ channel, maxAttempts: 1 });
    await alive.clock.advance(LEASE_MS + 1);
    await alive.service.runner.tick();
    expect(await stored(row.id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await stored(row.id))?.error).toMatch(/server stopped/);
    expect(alive.takenBack).toEqual([`${row.id}:failed`]);
    expect(alive.notices.at(-1)).toMatchObject({ jobId: row.id, status: 'failed' });
    await dead.service.close();
    await alive.service.close();
  });

  it('cancels a running job (its work stops), then answers 409 to a second cancel; a running job is not deleted', async () => {
    const a = instance();
    await a.service.start();
    const row = await create(a.service, a.clock.now());
    await expect(a.service.delete(tdb.userId, row.id)).rejects.toMatchObject({
      statusCode: 409,
      code: 'TOY_ACTIVE',
    });
    const canceled = await a.service.cancel(tdb.userId, row.id);
    expect(canceled).toMatchObject({ status: 'canceled', error: CANCELED_ERROR });
    await a.service.idle();
    expect(a.service.runner.runningIds).toEqual([]);
    await expect(a.service.cancel(tdb.userId, row.id)).rejects.toMatchObject({
      statusCode: 409,
      code: 'TOY_FINISHED',
      message: 'This toy job has already been canceled; nothing to cancel',
    });
    await expect(a.service.cancel(randomUUID(), row.id)).rejects.toMatchObject({ statusCode: 404 });
    await a.service.delete(tdb.userId, row.id);
    expect(await stored(row.id)).toBeUndefined();
    await a.service.close();
  });

  it('holds a user to the quota: the job past the hourly cap is refused with 429 and a Retry-After', async () => {
    const quotaUser = await insertUser(tdb.db, new Date(T0));
    const clock = new ManualClock(T0);
    const a = instance({ quota: new JobQuota(tdb.db, clock, { perHour: 2, waiting: 10 }) });
    const createFor = () =>
      a.service.create(quotaUser, (tx) =>
        backtestRepository.insert(tx, queuedBacktestRow(quotaUser, 'toy', clock.now())),
      );
    await createFor();
    await createFor();
    const refused = await createFor().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({
      statusCode: 429,
      code: 'JOB_QUOTA_EXCEEDED',
      headers: { 'retry-after': '3600' },
    });
    // An hour later the window has moved on
    await clock.advance(3_600_000);
    await expect(createFor()).resolves.toMatchObject({ status: 'queued' });
    await a.service.close();
  });
});
