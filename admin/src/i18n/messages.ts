import type { FeatureMessages } from './types';
import { commonMessages } from '../layout/layout.messages';
import { eventListMessages } from '../events/event-list.messages';
import { eventEditorMessages } from '../events/event-editor.messages';
import { linkedMessages } from '../venues/linked.messages';
import { termMessages } from '../terms/term.messages';
import { userMessages } from '../users/user.messages';
import { webhookMessages } from '../webhooks/webhook.messages';
import { importMessages } from '../imports/import.messages';
import { settingsMessages } from '../settings/settings.messages';
import { submissionMessages } from '../submissions/submission.messages';

/** Every feature's messages; each feature keeps its own file, in all five languages. */
export const FEATURE_MESSAGES: FeatureMessages[] = [
  commonMessages,
  eventListMessages,
  eventEditorMessages,
  linkedMessages,
  termMessages,
  userMessages,
  webhookMessages,
  importMessages,
  settingsMessages,
  submissionMessages,
];
