import { CHARGE_KINDS } from '../../../events/account/index.ts';
import { AppError } from '../../../core/errors.ts';

/** The checks of command fields the account rules share. */
export const invalid = (message: string): AppError => new AppError('invalid_request', message);

export const required = (field: string, value: string): void => {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${field} is required`);
};

/** A charge's subject: a known kind, and an audit id for an audit. */
export const subject = (kind: string, subjectId: string): void => {
  if (!(CHARGE_KINDS as readonly string[]).includes(kind))
    throw invalid(`kind must be one of ${CHARGE_KINDS.join(', ')}`);
  required('subjectId', subjectId);
  if (kind === 'audit' && !subjectId.startsWith('aud_')) throw invalid('an audit charge needs an audit id (aud_...)');
};
