/** A rule of a Docker seccomp profile. */
export interface SeccompRule {
  names: string[];
  action: string;
  comment?: string;
  [key: string]: unknown;
}

export const SANDBOX_RULE: SeccompRule;

/** The profile with the sandbox's calls allowed; throws, in French, on what is not a Docker seccomp profile. */
export function withChromiumSandbox(profile: unknown): { defaultAction: string; syscalls: SeccompRule[] };
