import type { ImportedVeto } from '../../machines/veto-session.machine.ts';

// The veto session machine owns the shape: the importers produce what its `matchImport` actor returns.
export type { ImportedVeto };
export type ImportProvider = ImportedVeto['provider'];
