// Loaded into a spawned CLI with NODE_OPTIONS=--require (tests only; nothing in the product reads
// it): EINVOICE_TEST_CLOCK_JUMP="<offset ms>" moves this process's wall clock by the offset when the
// process receives SIGUSR2 (the test signals every process at the same instant, like one machine's
// clock changing under all of them); "<offset ms>,now" starts with the clock already moved. As with
// an NTP correction or a person changing the time, Date.now() and new Date() jump, monotonic timers
// (setTimeout, performance.now) do not. The process writes "clock-jump: armed" to stderr once it
// listens for the signal, and "clock-jump: +<offset>" when its clock has jumped.
'use strict';
const [offsetText, start] = String(process.env.EINVOICE_TEST_CLOCK_JUMP ?? '').split(',');
const offset = Number(offsetText);
if (Number.isFinite(offset) && offset !== 0) {
  const RealDate = Date;
  let shift = 0;
  const jump = () => {
    shift = offset;
    process.stderr.write(`clock-jump: +${offset}\n`);
  };
  function JumpingDate(...args) {
    if (!new.target) return new RealDate(RealDate.now() + shift).toString();
    return args.length === 0 ? new RealDate(RealDate.now() + shift) : new RealDate(...args);
  }
  Object.setPrototypeOf(JumpingDate, RealDate);
  JumpingDate.prototype = RealDate.prototype;
  JumpingDate.now = () => RealDate.now() + shift;
  globalThis.Date = JumpingDate;
  if (start === 'now') jump();
  else {
    process.once('SIGUSR2', jump);
    process.stderr.write('clock-jump: armed\n');
  }
}
