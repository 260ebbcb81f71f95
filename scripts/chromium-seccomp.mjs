// Writes the seccomp profile that lets Chromium keep its sandbox inside a container: Docker's default profile, given
// as input (the one of your Docker version, e.g. moby/profiles' seccomp/default.json), plus the system calls the
// sandbox makes to enter its user namespaces (clone with namespace flags, unshare, setns), which the default profile
// allows only to containers with CAP_SYS_ADMIN. Nothing else is widened.
//
//   node scripts/chromium-seccomp.mjs docker-default.json > chromium-seccomp.json
//   (compose.yaml: security_opt: ["seccomp=./chromium-seccomp.json"], and no CHROMIUM_SANDBOX: "off")
import fs from 'node:fs';

/** The rule added: the namespace calls, whatever their flags, for every capability set. */
export const SANDBOX_RULE = {
  names: ['clone', 'unshare', 'setns'],
  action: 'SCMP_ACT_ALLOW',
  comment: 'Chromium sandbox: user, PID and network namespaces of its renderers',
};

/** The profile with the sandbox's calls allowed; throws, in French, on what is not a Docker seccomp profile. */
export function withChromiumSandbox(profile) {
  if (typeof profile !== 'object' || profile === null || typeof profile.defaultAction !== 'string' || !Array.isArray(profile.syscalls)) {
    throw new Error('Ce fichier n’est pas un profil seccomp de Docker (defaultAction et syscalls attendus).');
  }
  if (profile.syscalls.some((rule) => rule.comment === SANDBOX_RULE.comment)) return profile;
  return { ...profile, syscalls: [...profile.syscalls, SANDBOX_RULE] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const input = process.argv[2];
  if (!input) {
    console.error('usage : node scripts/chromium-seccomp.mjs <profil seccomp par défaut de Docker> > chromium-seccomp.json');
    process.exit(2);
  }
  try {
    process.stdout.write(`${JSON.stringify(withChromiumSandbox(JSON.parse(fs.readFileSync(input, 'utf8'))), null, 2)}\n`);
  } catch (error) {
    console.error(error instanceof SyntaxError ? `JSON illisible : ${error.message}` : error.message);
    process.exit(1);
  }
}
