/**
 * Test-only preload (`node --import <this file> dist/main.js`): the process starts with its wall
 * clock at TENDED_TEST_CLOCK (an ISO instant, e.g. `2025-02-01T08:00:00Z`) and runs on from there at
 * real speed. It stands in for faketime so a dated end-to-end test needs nothing outside npm; only
 * `Date` is faked, so timers, sockets and performance.now() keep real time. Never part of dist/.
 */
import FakeTimers from '@sinonjs/fake-timers';

const at = process.env.TENDED_TEST_CLOCK;
if (at !== undefined && at !== '') {
  const now = Date.parse(at);
  if (Number.isNaN(now))
    throw new Error(`TENDED_TEST_CLOCK must be an ISO instant such as 2025-02-01T08:00:00Z, not ${at}`);
  const clock = FakeTimers.install({ now, toFake: ['Date'], shouldAdvanceTime: true, advanceTimeDelta: 5 });
  // The interval that moves the fake clock on must not keep a finished process (observe --once) alive.
  clock.attachedInterval?.unref?.();
}
