export { serve, type ServeOptions } from "./serve.js";
