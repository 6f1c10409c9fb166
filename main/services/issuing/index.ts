export { IssuingService, type IssuingServiceDeps } from './service';
export { IssueQueue, type IssueClaim, type IssueVerdict, type NewIssue } from './queue';
export { IssueRunner } from './runner';
export type { FollowUpPorts } from './follow-ups';
