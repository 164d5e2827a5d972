// The package ships no types of its own; this is the part create-channel uses.
declare module "validate-npm-package-name" {
  interface Validation {
    validForNewPackages: boolean;
    validForOldPackages: boolean;
    errors?: string[];
    warnings?: string[];
  }
  function validate(name: string): Validation;
  export default validate;
}
