/**
 * The test run's master key (test/run.ts sets SECRETS_MASTER_KEY) for a service or CLI process
 * started with an environment of its own: without it, such a process would make a key of its own
 * and could not open the secrets this test's processes sealed (webhook secrets, e-mails, share
 * tokens).
 */
export const withTestKey = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  env.SECRETS_MASTER_KEY || !process.env.SECRETS_MASTER_KEY
    ? env
    : { ...env, SECRETS_MASTER_KEY: process.env.SECRETS_MASTER_KEY };
