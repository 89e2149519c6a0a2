/**
 * Imported first by run.ts: the screens the bench renders in its own process (section 4, key to
 * frame) load React as the package ships it. The bundle compiles `process.env.NODE_ENV` to
 * "production"; React read from node_modules without it is its development build, several times
 * slower on a first render and on the first key presses.
 */
process.env.NODE_ENV = 'production';
