/** The task kind of share expiry timers (infra/taskQueue): one per audit, moved when the date moves. */
export const SHARE_EXPIRY = 'timer.share-expiry';
