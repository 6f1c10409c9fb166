import { encodeData, type SandboxContext } from '../context';
import { envelope, type Reply } from '../reply';

/** GET get-certificates → the one certificate the sandbox's HSM signs with. */
export function opCertificates(ctx: SandboxContext): Reply {
  return { status: 200, envelope: envelope(true, encodeData(ctx, [{ ...ctx.issuing.certificate }])) };
}
