// Loaded into a spawned CLI with NODE_OPTIONS=--require (tests only; nothing in the product reads
// it): EINVOICE_TEST_CLOCK="<ahead ms>,<jump ms>" runs this process's wall clock <ahead> ahead of
// the machine's (the jumps before it started), and moves it <jump> further when the process receives
// SIGUSR2 — the test signals every process at the same instant, like one machine's clock changing
// under all of them. As with an NTP correction or a person changing the time, Date.now() and
// new Date() move, monotonic timers (setTimeout, performance.now) do not. The process writes
// "clock-jump: armed" to stderr once it listens for the signal, and "clock-jump: +<jump>" when its
// clock has jumped.
'use strict';
const [aheadText, jumpText] = String(process.env.EINVOICE_TEST_CLOCK ?? '').split(',');
const ahead = Number(aheadText) || 0;
const jump = Number(jumpText) || 0;
if (ahead !== 0 || jump !== 0) {
  const RealDate = Date;
  let shift = ahead;
  function ShiftedDate(...args) {
    if (!new.target) return new RealDate(RealDate.now() + shift).toString();
    return args.length === 0 ? new RealDate(RealDate.now() + shift) : new RealDate(...args);
  }
  Object.setPrototypeOf(ShiftedDate, RealDate);
  ShiftedDate.prototype = RealDate.prototype;
  ShiftedDate.now = () => RealDate.now() + shift;
  globalThis.Date = ShiftedDate;
  if (jump !== 0) {
    process.once('SIGUSR2', () => {
      shift += jump;
      process.stderr.write(`clock-jump: +${jump}\n`);
    });
    process.stderr.write('clock-jump: armed\n');
  }
}
