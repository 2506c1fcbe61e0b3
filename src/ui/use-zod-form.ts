import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';

/** A form's values as the fields hold them, and as submit receives them once the schema passed. */
type FormInput<Schema extends z.ZodType> = z.input<Schema> & FieldValues;
type FormOutput<Schema extends z.ZodType> = z.output<Schema> & FieldValues;

/** What a form may set besides its rules: default values, mode and the rest of useForm's options. */
export type ZodFormOptions<Schema extends z.ZodType> = Omit<
  UseFormProps<FormInput<Schema>, unknown, FormOutput<Schema>>,
  'resolver'
>;

/**
 * A react-hook-form form checked by a zod schema (STYLE 5: the schema is the one source of the
 * payload): the schema's German messages land at the fields, and submit receives the schema's
 * output. `schema` may be a function when the rules depend on something that changes while the
 * form is open; it is asked at every check.
 */
export function useZodForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema | (() => Schema),
  options: ZodFormOptions<Schema> = {},
): UseFormReturn<FormInput<Schema>, unknown, FormOutput<Schema>> {
  return useForm<FormInput<Schema>, unknown, FormOutput<Schema>>({
    ...options,
    resolver:
      typeof schema === 'function'
        ? (values, context, resolverOptions) =>
            zodResolver(schema())(values, context, resolverOptions)
        : zodResolver(schema),
  });
}
