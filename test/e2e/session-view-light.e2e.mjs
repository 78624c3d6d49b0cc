// The session view's main turn in the light theme (screenshots; same assertions as dark).
import { THEMES, sessionViewSpec } from './session-view.e2e.mjs';

export default sessionViewSpec(THEMES.light, 2);
