import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds

extension BirdsArtifactBuilder {
    /// `SHAP`, `VARS`: body shapes and field-mark variants, each by id.
    ///
    /// ```swift
    /// var shapes = Shapes(shapes: input.shapes, variants: input.variants, pool: &pool)
    /// ```
    struct Shapes {
        var shapes = RowTableBuilder<S.ShapeColumn>()
        var variants = RowTableBuilder<S.VariantColumn>()

        init(shapes list: [(id: String, name: String, icon: String)], variants variantList: [BirdsBuildInput.Variant], pool: inout StringPoolBuilder) {
            for shape in list.sorted(by: { utf8Precedes($0.id, $1.id) }) {
                var r = shapes.newRow()
                r[.id] = pool.intern(shape.id); r[.name] = pool.intern(shape.name); r[.icon] = pool.intern(shape.icon)
                shapes.append(r)
            }
            for v in variantList.sorted(by: { utf8Precedes($0.id, $1.id) }) {
                var r = variants.newRow()
                r[.id] = pool.intern(v.id); r[.fieldMarkID] = pool.intern(v.fieldMarkID); r[.shapeID] = pool.intern(v.shapeID)
                r[.area] = pool.intern(v.area); r[.name] = pool.intern(v.name)
                variants.append(r)
            }
        }

        mutating func add(to artifact: inout ArtifactBuilder, strings remap: [UInt32]) {
            artifact.addSection(S.Section.shapes, &shapes, strings: remap)
            artifact.addSection(S.Section.variants, &variants, strings: remap)
        }
    }
}
