/** A pause; callers that may be stopped check their own flag around it. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
