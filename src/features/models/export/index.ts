/** The model page's export actions: the version as an ONNX model (issue 28 item 3). */
export { ExportOnnx } from './ExportOnnx';
