import { CommandRegistry } from '../registry';
import { loginCommand, logoutCommand, statusCommand } from './auth';
import { emailCommand } from './email';
import { previewCommand } from './preview';
import { profileCommand } from './profile';
import { queueCommand } from './queue';
import { sandboxCommand } from './sandbox';
import { templatesCommand } from './templates';
import { wordsCommand } from './words';
import { downloadCommand } from './download';
import { issueCommand } from './issue';
import { issueQueueCommand } from './issue-queue';
import { issuedCommand } from './issued';
import { paperCopyCommand } from './paper-copy';

/**
 * Every `einvoice` command. To add one, write `commands/<name>.ts` (a `CliCommand`) and add one
 * `.register(…)` line here.
 */
export function builtinCommands(): CommandRegistry {
  return new CommandRegistry()
    .register(templatesCommand)
    .register(previewCommand)
    .register(wordsCommand)
    .register(sandboxCommand)
    .register(loginCommand)
    .register(logoutCommand)
    .register(statusCommand)
    .register(profileCommand)
    .register(emailCommand)
    .register(queueCommand)
    .register(downloadCommand)
    .register(issueCommand)
    .register(issueQueueCommand)
    .register(issuedCommand)
    .register(paperCopyCommand);
}
