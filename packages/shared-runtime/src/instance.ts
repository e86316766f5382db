/**
 * Identity of this copy of the runtime. Module Federation must load exactly one copy for the shell and every
 * remote (a second copy means a second socket and a second session); pages show this id so a test can prove it.
 */
export const runtimeInstanceId: string = globalThis.crypto.randomUUID();
