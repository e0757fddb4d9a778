import { z } from 'zod';

export const FEEDBACK_RATINGS = ['positive', 'neutral', 'negative'] as const;
export const ZFeedbackRating = z.enum(FEEDBACK_RATINGS);

/** `POST /api/feedback`. */
export const ZFeedback = z.strictObject({
  rating: ZFeedbackRating,
  comment: z.string().trim().max(5000).optional().default(''),
});
export type TFeedback = z.infer<typeof ZFeedback>;

/** `POST /api/event`: a product event; metadata is a small JSON object. */
export const ZEvent = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_.:-]+$/),
  metadata: z
    .record(z.string().max(100), z.unknown())
    .optional()
    .refine((value) => value === undefined || JSON.stringify(value).length <= 4096, {
      error: 'validation.metadata_too_large',
    }),
});
export type TEvent = z.infer<typeof ZEvent>;

/** `POST /api/event` answers that the event was stored. */
export const ZEventRecorded = z.object({ recorded: z.literal(true) });
