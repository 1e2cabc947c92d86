// The bundle's stand-in for `@modelcontextprotocol/server/_shims` (scripts/build.mjs aliases it). The SDK's
// own shim loads ajv at server start to validate elicitation answers, which this server never asks for,
// and that cost a cold start about a tenth of its time. Here ajv loads, from dist/lib/, if a validator is
// ever used. Sources and tests use the SDK's shim unchanged.
import process from 'node:process';
import { lazyLibrary } from './lazy-library.js';

type Validate = (input: unknown) => unknown;
interface Validator {
  getValidator(schema: unknown): Validate;
}

export class DefaultJsonSchemaValidator implements Validator {
  private inner?: Validator;

  getValidator(schema: unknown): Validate {
    this.inner ??= new (lazyLibrary<{ DefaultJsonSchemaValidator: new () => Validator }>('sdkShims').DefaultJsonSchemaValidator)();
    return this.inner.getValidator(schema);
  }
}

export { process };
