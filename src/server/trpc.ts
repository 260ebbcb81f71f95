import { initTRPC } from '@trpc/server';
import superjson from 'superjson';
import type { Context } from './context';
import { AppError, messagesOf } from './errors';

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const messages = messagesOf(error);
    const { stack: _stack, ...data } = shape.data;
    return {
      ...shape,
      message: Array.isArray(messages) ? messages.join('\n') : messages,
      data: { ...data, messages },
    };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;

/** After this middleware, `ctx.session`, `ctx.userId` and `ctx.organizationId` are non-null types. */
export const protectedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new AppError('UNAUTHORIZED', 'Veuillez vous connecter');
  return next({
    ctx: { ...ctx, session: ctx.session, userId: ctx.session.userId, organizationId: ctx.session.organizationId },
  });
});
