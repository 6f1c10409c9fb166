import { ISSUE_STATES, type IssueEntry, type IssueState } from '../../../common/calls/issuing';
import { ExitCode, type CliCommand } from '../registry';
import { parseAction, parseStates, parseWait } from '../options';
import { exitFor, itemJson, itemsText, openIssuing, runQueue } from './issue-run';

/**
 * `einvoice issue-queue list [--state S,…] | flush [--wait S] | check`: the app's issue queue from
 * the command line (the same queue the Issue button fills).
 */
export const issueQueueCommand: CliCommand = {
  name: 'issue-queue',
  summary: {
    en: 'Show, issue or check the issue queue (list | flush | check)',
    vi: 'Xem, phát hành hoặc kiểm tra hàng đợi phát hành (list | flush | check)',
  },
  synopsis: 'list [--state S,…] | flush [--wait SECONDS] | check',
  positionals: { min: 1, max: 1 },
  options: {
    state: {
      type: 'string',
      arg: 'S,…',
      help: `list only these states (${ISSUE_STATES.join(', ')}); a refusal whose draft was reopened is listed only without --state`,
    },
    wait: { type: 'string', arg: 'SECONDS', help: 'flush: how long to keep retrying and looking up unknown outcomes (default 120)' },
  },
  async run(ctx, { values, positionals }) {
    const action = parseAction(positionals, ['list', 'flush', 'check'] as const, 'issue-queue');
    const states = parseStates(values.state, ISSUE_STATES, 'issue-queue');
    const waitMs = parseWait(values, 'issue-queue');
    const cli = await openIssuing(ctx, action !== 'list');
    const { queue } = cli.services.issuing;
    const profileId = cli.profile.id;
    const counts = () => queue.counts(profileId);
    const inStates = (wanted: readonly IssueState[]) => queue.list(profileId, { states: wanted }).items.sort((a, b) => a.id - b.id);
    const now = (list: readonly IssueEntry[]) => list.map((e) => itemJson(queue.get(e.id) ?? e));

    if (action === 'list') {
      const items = (states ? inStates(states) : inStates(ISSUE_STATES)).map((e) => itemJson(e));
      return { json: { items, counts: counts() }, text: itemsText(items) };
    }

    const session = await cli.sessionNow();
    if (action === 'check') {
      const unknown = inStates(['unknown']);
      const { runner } = cli.services.issuing;
      const end = await runner.settleUnknown(session, profileId, { all: true });
      // Only the lookups: a retry the failure scheduled must not start issuing.
      await runner.stop(0);
      const items = now(unknown);
      const left = items.filter((i) => i.state === 'unknown').length;
      ctx.progress({
        en: `${unknown.length - left} of ${unknown.length} unknown outcomes settled.`,
        vi: `Đã xác định ${unknown.length - left}/${unknown.length} hóa đơn chưa rõ kết quả.`,
      });
      const st = runner.status();
      const exitCode =
        end === 'stop' && left > 0
          ? cli.refused || st.state === 'paused'
            ? ExitCode.Auth
            : ExitCode.Unreachable
          : left > 0
            ? ExitCode.SomeFailed
            : ExitCode.Ok;
      return { exitCode, json: { items, settled: unknown.length - left, unknown: left, counts: counts() }, text: itemsText(items) };
    }

    const due = inStates(['queued', 'unknown', 'issuing']);
    const report = await runQueue(
      ctx,
      cli,
      due.map((e) => e.id),
      waitMs,
    );
    if (!report.aborted) await cli.services.issuing.followUps?.run(profileId);
    const items = now(due);
    return { exitCode: exitFor(items, report), json: { items, counts: counts() }, text: itemsText(items) };
  },
};
