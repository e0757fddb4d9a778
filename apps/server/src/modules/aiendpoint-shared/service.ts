/** What other modules use of the marketplace catalog (the public pages' titles read it). */
export { catalogEndpoint, catalogPage } from './catalog';
