import { describeSuiteShard } from "../helpers/suite-validation.js";

await describeSuiteShard(3);
