/** The contract version this build serves (spec title), echoed in errors, webhooks and reports. */
export const API_VERSION = 'v1.4' as const;
