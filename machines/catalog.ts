import type { AnyStateMachine } from 'xstate';

/** Every machine of the service, for the diagram generator and the inspector. */
export const machineCatalog: ReadonlyArray<{ name: string; machine: AnyStateMachine }> = [];
