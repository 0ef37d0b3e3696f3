// The package ships no declarations; the loader uses its two factories and hands the modules to glTF-Transform.
declare module "draco3dgltf" {
    const draco3d: {
        createDecoderModule(options?: object): Promise<unknown>;
        createEncoderModule(options?: object): Promise<unknown>;
    };
    export default draco3d;
}
