/** What other modules use of the marketplace catalog (the public pages' titles read it). */
export { catalogEndpoint, catalogPage } from './catalog';
/** The endpoints serving a model, with their figures: the gateway's model look-up (contract 5b). */
export { modelProviders, type TModelProvider } from './models';
