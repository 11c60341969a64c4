/** The `meta` of a completed audit as the API reports it, for tests that build a result by hand. */
export const sampleResultMeta = () => ({
  creditsCharged: 1,
  apiVersion: 'v1.4' as const,
  reportUrl: 'https://app.example/r/1',
  shareUrl: null,
  shareExpiresAt: null,
});
