import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AckTracker, SeenFrames, makeFrame, type Frame } from '../src/index.ts';

const sender = { role: 'worker' as const, id: 'w1' };
const frame = () => makeFrame('heartbeat', { state: 'idle', running: 0 }, { tenant: 'default', sender, requestAck: true });
const ackOf = (f: Frame) => makeFrame('ack', { status: 'ok' }, { tenant: 'default', sender: { role: 'scheduler', id: 's' }, ackFor: f.id });

describe('AckTracker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('resends with the same id and backoff until acknowledged', async () => {
    const sent: Frame[] = [];
    const tracker = new AckTracker({ initialTimeoutMs: 100, maxTimeoutMs: 400, random: () => 0.999 });
    tracker.attach((f) => (sent.push(f), true));
    const f = frame();
    const done = tracker.sendReliable(f);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(200);
    expect(sent).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(400);
    await vi.advanceTimersByTimeAsync(400);
    expect(sent).toHaveLength(5); // capped at maxTimeoutMs
    expect(new Set(sent.map((s) => s.id))).toEqual(new Set([f.id]));
    expect(tracker.handleAck(ackOf(f))).toBe(true);
    await expect(done).resolves.toMatchObject({ type: 'ack' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toHaveLength(5);
    expect(tracker.unacknowledged()).toEqual([]);
  });

  it('holds frames while detached and sends them all on attach', async () => {
    const tracker = new AckTracker({ initialTimeoutMs: 100 });
    const f1 = frame();
    const f2 = frame();
    void tracker.sendReliable(f1);
    void tracker.sendReliable(f2);
    await vi.advanceTimersByTimeAsync(1000);
    const sent: Frame[] = [];
    tracker.attach((f) => (sent.push(f), true));
    expect(sent.map((f) => f.id)).toEqual([f1.id, f2.id]);
    tracker.detach();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(2);
  });

  it('gives up after maxAttempts with E.WS.ACK_TIMEOUT', async () => {
    const tracker = new AckTracker({ initialTimeoutMs: 10, maxAttempts: 2, random: () => 0.5 });
    tracker.attach(() => true);
    const p = tracker.sendReliable(frame());
    const assertion = expect(p).rejects.toMatchObject({ code: 'E.WS.ACK_TIMEOUT' });
    await vi.advanceTimersByTimeAsync(1000);
    await assertion;
  });

  it('ignores an ACK for an unknown frame', () => {
    const tracker = new AckTracker();
    expect(tracker.handleAck(ackOf(frame()))).toBe(false);
  });
});

describe('SeenFrames', () => {
  it('remembers ids up to its capacity, oldest forgotten first', () => {
    const seen = new SeenFrames(2);
    seen.add('a');
    seen.add('b');
    seen.add('c');
    expect(seen.has('a')).toBe(false);
    expect(seen.has('b')).toBe(true);
    expect(seen.has('c')).toBe(true);
  });
});
